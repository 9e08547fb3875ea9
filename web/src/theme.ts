// Light and dark themes: the browser's preference (prefers-color-scheme), unless the viewer picked one with the
// toggle, which is remembered in localStorage. The theme is `data-theme` on <html>: the CSS variables (theme.css)
// and the canvas colors (canvasTheme, read by graph-view.ts) follow it.
import "./theme.css";

export type Theme = "light" | "dark";

/** localStorage key of the viewer's choice. */
export const THEME_KEY = "graph-theme";

type Listener = (theme: Theme) => void;
const listeners = new Set<Listener>();

/** The canvas's colors per theme (cosmos.gl config); the background is also the CSS `--bg`. */
const CANVAS: Record<
  Theme,
  { backgroundColor: string; hoveredPointRingColor: string; focusedPointRingColor: string; hoveredLinkColor: string }
> = {
  dark: { backgroundColor: "#15181d", hoveredPointRingColor: "#7aa2f7", focusedPointRingColor: "#ffffff", hoveredLinkColor: "#7aa2f7" },
  light: { backgroundColor: "#f6f7f9", hoveredPointRingColor: "#3b6fd8", focusedPointRingColor: "#1d2330", hoveredLinkColor: "#3b6fd8" },
};

const lightQuery = (): MediaQueryList | undefined => window.matchMedia?.("(prefers-color-scheme: light)");

function storedTheme(): Theme | undefined {
  try {
    const value = localStorage.getItem(THEME_KEY);
    return value === "light" || value === "dark" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The browser's preference: light when it asks for light, dark otherwise (the page's own look). */
export function preferredTheme(): Theme {
  return lightQuery()?.matches ? "light" : "dark";
}

export function currentTheme(): Theme {
  return document.documentElement.dataset.theme === "light" ? "light" : "dark";
}

/** cosmos.gl's colors for the current theme. */
export function canvasTheme(): (typeof CANVAS)[Theme] {
  return CANVAS[currentTheme()];
}

/** Calls `listener` on every change of theme; answers a function that stops it. */
export function onThemeChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function apply(theme: Theme): void {
  const root = document.documentElement;
  if (root.dataset.theme === theme) return;
  root.dataset.theme = theme;
  for (const listener of listeners) listener(theme);
}

/** Sets the theme, remembering it as the viewer's choice. */
export function setTheme(theme: Theme): void {
  try {
    localStorage.setItem(THEME_KEY, theme);
  } catch {
    // Storage refused (private mode): the choice lasts as long as the page.
  }
  apply(theme);
}

/** Applies the stored choice or the browser's preference, and follows the preference while no choice is stored. */
export function initTheme(): void {
  apply(storedTheme() ?? preferredTheme());
  lightQuery()?.addEventListener("change", () => {
    if (!storedTheme()) apply(preferredTheme());
  });
}

/** The toggle button, added to `container`: it switches to the other theme and remembers the choice. */
export function createThemeToggle(container: HTMLElement): HTMLButtonElement {
  const button = document.createElement("button");
  button.type = "button";
  button.id = "theme-toggle";
  button.className = "button theme-toggle";
  const show = (theme: Theme) => {
    const other = theme === "dark" ? "light" : "dark";
    button.textContent = theme === "dark" ? "☀" : "☾";
    button.title = `Switch to the ${other} theme`;
    button.setAttribute("aria-label", `Switch to the ${other} theme`);
  };
  show(currentTheme());
  onThemeChange(show);
  button.addEventListener("click", () => setTheme(currentTheme() === "dark" ? "light" : "dark"));
  container.append(button);
  return button;
}
