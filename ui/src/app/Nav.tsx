// The list of the screens as a vertical tab list: arrows move between tabs, each tab says its shortcut.
import { For } from "solid-js";
import { SCREEN_IDS, SCREEN_TITLES, type ScreenId } from "./screens";
import { useWorkbench } from "./context";
import { ariaKeys, keyLabel, screenKeys } from "./shortcuts";

export function tabId(id: ScreenId): string {
  return `tab-${id}`;
}

export function panelId(id: ScreenId): string {
  return `panel-${id}`;
}

export function Nav() {
  const wb = useWorkbench();
  const tabs: HTMLButtonElement[] = [];
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    let next = index;
    if (e.key === "ArrowDown" || e.key === "ArrowRight") next = (index + 1) % SCREEN_IDS.length;
    else if (e.key === "ArrowUp" || e.key === "ArrowLeft") next = (index - 1 + SCREEN_IDS.length) % SCREEN_IDS.length;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = SCREEN_IDS.length - 1;
    else return;
    e.preventDefault();
    wb.go(SCREEN_IDS[next]!);
    tabs[next]?.focus();
  };
  return (
    <nav class="app-nav" aria-label="Screens">
      <div role="tablist" aria-orientation="vertical" aria-label="Workbench screens">
        <For each={SCREEN_IDS}>
          {(id, index) => (
            <button
              ref={(el) => (tabs[index()] = el)}
              type="button"
              role="tab"
              id={tabId(id)}
              aria-selected={wb.screen() === id}
              aria-controls={panelId(id)}
              aria-keyshortcuts={ariaKeys(screenKeys(index()))}
              title={`${SCREEN_TITLES[id]} (${keyLabel(screenKeys(index()))})`}
              tabIndex={wb.screen() === id ? 0 : -1}
              onClick={() => wb.go(id)}
              onKeyDown={(e) => onKeyDown(e, index())}
            >
              <span class="tab-title">{SCREEN_TITLES[id]}</span>
              <kbd class="tab-key" aria-hidden="true">
                {index() + 1}
              </kbd>
            </button>
          )}
        </For>
      </div>
    </nav>
  );
}
