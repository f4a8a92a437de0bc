import type { z } from 'zod';
import { ApiHttpError } from './api-error.ts';

/**
 * Validates a request part with its protocol schema. On failure the 400 names the first bad
 * field, so a developer reading the response knows what to fix without the server's logs.
 */
export function parseRequest<T extends z.ZodType>(
  schema: T,
  value: unknown,
  part: 'body' | 'query' | 'path',
): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  throw new ApiHttpError(
    400,
    'invalid-request',
    issue ? describeIssue(issue, part) : `Invalid ${part}.`,
  );
}

function describeIssue(issue: z.core.$ZodIssue, part: string): string {
  if (issue.code === 'unrecognized_keys') {
    const names = issue.keys.map((key) => `"${key}"`).join(', ');
    return `Unknown field${issue.keys.length > 1 ? 's' : ''} ${names} in the request ${part}.`;
  }
  if (issue.path.length === 0) return `The request ${part} is invalid: ${issue.message}.`;
  return `Field "${issue.path.map(String).join('.')}" is invalid: ${issue.message}.`;
}
