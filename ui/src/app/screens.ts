// The six screens' ids, titles and order: the order gives the Alt+1..6 / Ctrl+1..6 shortcuts.
export const SCREEN_IDS = ["sandbox", "composer", "sca", "batch", "inspector", "flow"] as const;

export type ScreenId = (typeof SCREEN_IDS)[number];

export const SCREEN_TITLES: Record<ScreenId, string> = {
  sandbox: "Sandbox data",
  composer: "Composer",
  sca: "SCA",
  batch: "Batch & clock",
  inspector: "Inspector",
  flow: "Flow",
};
