export { openPanelSession, type PanelSession, type PanelSessionOptions, type PanelSide, type PanelRun } from "./panel-session.ts";
