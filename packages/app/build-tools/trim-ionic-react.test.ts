// @vitest-environment node
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { eagerRouterOutlet, trimIonicReact } from './trim-ionic-react.ts';

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

it("makes the installed <ion-router-outlet>'s gesture import static", async () => {
  const outlet = join(
    dirname(require.resolve('@ionic/core/package.json')),
    'components',
    'ion-router-outlet.js',
  );
  const eager = eagerRouterOutlet(await readFile(outlet, 'utf8'));
  expect(eager).not.toContain('import(');
  expect(eager).toMatch(/^import \* as swipeBackGesture from "\.\/p-[\w-]+\.js";/);
  expect(eager).toContain('(swipeBackGesture).createSwipeBackGesture(');
  expect(() => eagerRouterOutlet('export const x = 1;')).toThrow(/swipe-back gesture/);
});
