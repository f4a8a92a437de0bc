import type { Plugin } from 'vite';

// `@ionic/react` is one module, so two things of it load before any screen paints though only
// later screens need them (issue 19, packages/app/src/ui/ionic/README.md):
// - its `IonModal` defines `<ion-modal>` as the module loads, which brings the modal's code (about
//   8 KB of brotli) into the first script. Here its import of that definition becomes a no-op, and
//   `src/ui/ionic/ion-modal.ts`, which the modals import, defines the element instead.
// - its `IonNav` is made by calls the bundler must keep (they are not marked pure), with
//   `<ion-nav>`'s code, though Docket has no IonNav. Marked pure, they go when unused.
// Each change names what it expects to find and fails the build when an upgrade of
// `@ionic/react` moved it, so it never silently stops applying (trim-ionic-react.test.ts).

const IONIC_REACT = /[\\/]node_modules[\\/]@ionic[\\/]react[\\/]dist[\\/]index\.js$/;
const ROUTER_OUTLET =
  /[\\/]node_modules[\\/]@ionic[\\/]core[\\/]components[\\/]ion-router-outlet\.js$/;

interface Trim {
  readonly what: string;
  readonly find: RegExp;
  readonly replace: string;
}

const TRIMS: readonly Trim[] = [
  {
    what: "the import of <ion-modal>'s definition",
    find: /import \{ defineCustomElement as (defineCustomElement\$\w+) \} from '@ionic\/core\/components\/ion-modal\.js';/,
    replace: 'const $1 = () => undefined; // defined by src/ui/ionic/ion-modal.ts',
  },
  {
    what: 'IonNavInner',
    find: /const IonNavInner = createReactComponent\(/,
    replace: 'const IonNavInner = /*@__PURE__*/ createReactComponent(',
  },
  {
    what: 'IonNav',
    find: /const IonNav = createForwardRef\(/,
    replace: 'const IonNav = /*@__PURE__*/ createForwardRef(',
  },
];

/** `@ionic/react`'s module with the changes above; throws naming a change that found nothing. */
export function trimIonicReact(code: string): string {
  let trimmed = code;
  for (const { what, find, replace } of TRIMS) {
    if (!find.test(trimmed)) {
      throw new Error(
        `trim-ionic-react: ${what} is no longer where @ionic/react had it; update build-tools/trim-ionic-react.ts.`,
      );
    }
    trimmed = trimmed.replace(find, replace);
  }
  return trimmed;
}

// `<ion-router-outlet>` fetches its swipe-back gesture with a dynamic import as it connects, and
// the first page waited for that chunk: on a slow network one more round trip before /login
// painted (issue 19). Imported statically, it comes with the outlet's own code.
const GESTURE_IMPORT = /\(await import\("(\.\/p-[\w-]+\.js)"\)\)/;

/** `<ion-router-outlet>`'s module with its one dynamic import made static. */
export function eagerRouterOutlet(code: string): string {
  const found = GESTURE_IMPORT.exec(code);
  if (found === null) {
    throw new Error(
      "trim-ionic-react: <ion-router-outlet>'s import of its swipe-back gesture is no longer where Ionic had it; update build-tools/trim-ionic-react.ts.",
    );
  }
  const [call, path] = found;
  return `import * as swipeBackGesture from "${path ?? ''}";\n${code.replace(call, '(swipeBackGesture)')}`;
}

/** The build's plugin: the changes above, to those two modules and to nothing else. */
export function trimIonicReactPlugin(): Plugin {
  return {
    name: 'docket-trim-ionic-react',
    apply: 'build',
    transform(code, id) {
      if (IONIC_REACT.test(id)) return { code: trimIonicReact(code), map: null };
      if (ROUTER_OUTLET.test(id)) return { code: eagerRouterOutlet(code), map: null };
      return null;
    },
  };
}
