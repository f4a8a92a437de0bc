// @vitest-environment node
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { trimIonicReact } from './trim-ionic-react.ts';

const require = createRequire(import.meta.url);

async function ionicReactModule(): Promise<string> {
  const packageJson = require.resolve('@ionic/react/package.json');
  return readFile(join(dirname(packageJson), 'dist', 'index.js'), 'utf8');
}

it("applies to the installed @ionic/react: the modal's definition is left to the app, IonNav is pure", async () => {
  const trimmed = trimIonicReact(await ionicReactModule());
  expect(trimmed).not.toContain("from '@ionic/core/components/ion-modal.js'");
  expect(trimmed).toMatch(/const defineCustomElement\$\w+ = \(\) => undefined;/);
  expect(trimmed).toContain('const IonNavInner = /*@__PURE__*/ createReactComponent(');
  expect(trimmed).toContain('const IonNav = /*@__PURE__*/ createForwardRef(');
  // Everything else is left as it was.
  expect(trimmed.split('\n').length).toBe((await ionicReactModule()).split('\n').length);
});

it('fails loudly when an upgrade moved what it changes', () => {
  expect(() => trimIonicReact('export const IonModal = 1;')).toThrow(
    /trim-ionic-react: the import of <ion-modal>'s definition is no longer where @ionic\/react had it/,
  );
});
