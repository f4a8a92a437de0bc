import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from './protocol-version.ts';
import fingerprint from './protocol-fingerprint.json' with { type: 'json' };

// Every exported zod schema of this package, turned into JSON Schema and hashed. A message that
// changes shape changes the hash; the recorded hash may only change together with
// PROTOCOL_VERSION, so a wire change can never ship under the old version number.
async function currentFingerprint(): Promise<string> {
  const files = readdirSync(new URL('.', import.meta.url))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .sort();
  const shapes: Record<string, unknown> = {};
  for (const file of files) {
    const module = (await import(`./${file}`)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module).sort(([a], [b]) => a.localeCompare(b))) {
      shapes[`${file}#${name}`] =
        value instanceof z.ZodType ? z.toJSONSchema(value, { io: 'input' }) : value;
    }
  }
  return createHash('sha256').update(JSON.stringify(shapes)).digest('hex');
}

describe('protocol fingerprint', () => {
  it('changes only together with PROTOCOL_VERSION', async () => {
    const hash = await currentFingerprint();
    const recorded = `version ${fingerprint.version}, hash ${fingerprint.hash}`;
    const now = `version ${PROTOCOL_VERSION}, hash ${hash}`;
    if (fingerprint.version === PROTOCOL_VERSION) {
      expect(
        now,
        'A protocol message or constant changed: bump PROTOCOL_VERSION and record the new hash in protocol-fingerprint.json',
      ).toBe(recorded);
    } else {
      expect(
        PROTOCOL_VERSION,
        'PROTOCOL_VERSION changed: record the new version and hash in protocol-fingerprint.json',
      ).toBe(fingerprint.version);
    }
  });
});
