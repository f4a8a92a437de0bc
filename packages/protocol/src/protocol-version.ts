/**
 * The version of the wire protocol between the app and the server. Bump it whenever a message
 * schema in this package changes shape; the server refuses clients on another version with a
 * clear error instead of misreading their messages.
 */
export const PROTOCOL_VERSION = 16;

/** Header a client sends with every API call so the server can check the protocol version. */
export const PROTOCOL_HEADER = 'x-docket-protocol';
