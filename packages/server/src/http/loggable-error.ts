/**
 * A failed query's error repeats the SQL and its parameters (a user's settings, say) in its
 * message; the log gets the database's own message and code, and the stack without the message.
 */
export function loggableError(error: Error): Record<string, unknown> {
  const cause: unknown = 'cause' in error ? error.cause : undefined;
  const fromQuery = 'params' in error && cause instanceof Error;
  const message = fromQuery ? cause.message : error.message;
  const code = fromQuery && 'code' in cause ? cause.code : (error as { code?: unknown }).code;
  return {
    type: fromQuery ? cause.constructor.name : error.constructor.name,
    message,
    code,
    stack: error.stack
      ?.split('\n')
      .filter((line) => /^\s+at /.test(line))
      .join('\n'),
  };
}
