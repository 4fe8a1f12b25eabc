// Entry point: resolve where the service is and the token, then mount the workbench.
import { render } from "solid-js/web";
import { resolveConfig } from "./api/config";
import { App } from "./app/App";
import { WorkbenchProvider } from "./app/context";
import { applyPresentation, applyTheme, storedPresentation, storedTheme } from "./app/theme";
import "./styles/theme.css";
import "./styles/app.css";

applyTheme(storedTheme());
applyPresentation(storedPresentation());
const config = resolveConfig();
const root = document.getElementById("root");
if (root) {
  render(
    () => (
      <WorkbenchProvider config={config}>
        <App />
      </WorkbenchProvider>
    ),
    root,
  );
}
