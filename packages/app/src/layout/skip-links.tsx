import { useRef } from 'react';
import { catchFallingFocus } from '../ui/falling-focus.ts';

// Skip links (issue 40): the tab bar comes last in the page, after every control of the screen
// (18 to 20 Tabs away), and Tracked's list after its filters. A skip link is the first stop after
// the screen's heading, shown only while it has focus, and moves focus where it says.

/** The selected tab of the tab bar, where "Skip to the tabs" lands. */
function selectedTab(): HTMLElement | null {
  const button =
    document.querySelector('ion-tab-bar ion-tab-button.tab-selected') ??
    document.querySelector('ion-tab-bar ion-tab-button');
  return button?.shadowRoot?.querySelector<HTMLElement>('a') ?? null;
}

export function SkipLink({
  label,
  target,
}: {
  readonly label: string;
  readonly target: () => HTMLElement | null;
}) {
  // Enter clicks a button on its keydown; its keyup then goes to whatever has focus. Moved at
  // once, focus would take that keyup to the target, and a tab of Ionic's tab bar opens on
  // Enter's keyup (which reset Tracked's list): so after Enter, focus moves once the key is up.
  const enterDown = useRef(false);
  const go = () => {
    const element = target();
    if (element === null) return;
    if (element.tabIndex < 0 && !element.hasAttribute('tabindex')) {
      element.setAttribute('tabindex', '-1');
    }
    element.focus();
    // A target that is not there yet (a list still loading) takes focus once it is.
    if (document.activeElement !== element) catchFallingFocus(target);
  };
  return (
    <button
      type="button"
      className="skip-link"
      onKeyDown={(event) => {
        enterDown.current = event.key === 'Enter';
      }}
      onClick={() => {
        if (!enterDown.current) {
          go();
          return;
        }
        enterDown.current = false;
        const whenUp = (event: KeyboardEvent) => {
          if (event.key !== 'Enter') return;
          document.removeEventListener('keyup', whenUp, true);
          go();
        };
        document.addEventListener('keyup', whenUp, true);
      }}
    >
      {label}
    </button>
  );
}

/** "Skip to the tabs", after the heading of each of the five tabs' screens. */
export function SkipToTabs() {
  return <SkipLink label="Skip to the tabs" target={selectedTab} />;
}
