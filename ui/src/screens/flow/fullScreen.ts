// Presentation's full screen: the desktop window's own (a command of the main window) or the browser's
// Fullscreen API, followed as it changes (the browser leaves full screen on Escape by itself), and left when
// presentation is left.
import { createSignal, onCleanup, onMount } from "solid-js";
import { isDesktop, isFullScreen, setFullScreen } from "../../api/native";

export function createFullScreen(onError: (e: unknown) => void) {
  const [on, setOn] = createSignal(false);
  const follow = () => setOn(Boolean(document.fullscreenElement));
  onMount(() => {
    isFullScreen().then(setOn, () => undefined);
    if (!isDesktop()) document.addEventListener("fullscreenchange", follow);
  });
  const set = (wanted: boolean) => setFullScreen(wanted).then(setOn, onError);
  onCleanup(() => {
    document.removeEventListener("fullscreenchange", follow);
    if (on()) void setFullScreen(false).catch(() => undefined);
  });
  return { on, set };
}
