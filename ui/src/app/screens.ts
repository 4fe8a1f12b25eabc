// The seven screens' ids, titles and order: the order gives the Alt+1..7 shortcuts (⌥1..7 on macOS).
export const SCREEN_IDS = ["sandbox", "composer", "sca", "batch", "inspector", "flow", "conformance"] as const;

export type ScreenId = (typeof SCREEN_IDS)[number];

export const SCREEN_TITLES: Record<ScreenId, string> = {
  sandbox: "Sandbox data",
  composer: "Composer",
  sca: "SCA",
  batch: "Batch & clock",
  inspector: "Inspector",
  flow: "Flow",
  conformance: "Conformance",
};
