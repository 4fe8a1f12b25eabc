// Light and dark themes, and the presentation type scale: the system's choice by default (prefers-color-scheme, in CSS), or one chosen
// here and remembered in localStorage; applied as <html data-theme>.
export type ThemeChoice = "system" | "light" | "dark";

const KEY = "xs2a-workbench-theme";

export function storedTheme(): ThemeChoice {
  try {
    const value = localStorage.getItem(KEY);
    return value === "light" || value === "dark" ? value : "system";
  } catch {
    return "system";
  }
}

export function applyTheme(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === "system") root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", choice);
  try {
    if (choice === "system") localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // Not remembered; still applied.
  }
}

export function nextTheme(choice: ThemeChoice): ThemeChoice {
  return choice === "system" ? "light" : choice === "light" ? "dark" : "system";
}

/** Presentation mode: the same screens at a larger type scale (DESIGN.md), remembered like the theme. */
const SCALE_KEY = "xs2a-workbench-presentation";

export function storedPresentation(): boolean {
  try {
    return localStorage.getItem(SCALE_KEY) === "on";
  } catch {
    return false;
  }
}

export function applyPresentation(on: boolean): void {
  document.documentElement.style.setProperty("--type-scale", on ? "1.3" : "1");
  try {
    if (on) localStorage.setItem(SCALE_KEY, "on");
    else localStorage.removeItem(SCALE_KEY);
  } catch {
    // Not remembered; still applied.
  }
}
