import {
  accountUsageResponseSchema,
  type AccountUsageResponse,
} from '@docket/protocol/account-usage';
import type { ApiClient } from './api-client.ts';

/** The signed-in user's room on the server, per kind, with each quota. */
export function fetchAccountUsage(api: ApiClient): Promise<AccountUsageResponse> {
  return api({ method: 'GET', path: '/api/account/usage', response: accountUsageResponseSchema });
}
