// The conformance endpoints over the workbench's one transport: the report, its JUnit and HTML forms (as
// text, to save), and the TPPs the traffic log has seen.
import type { QueryValue, Transport } from "../../api/http";
import type { Report, ReportQuery, TppSeen } from "./types";

export type ExportFormat = "json" | "junit" | "html";

function query(q: ReportQuery): Record<string, QueryValue> {
  return { tpp: q.tpp, since: q.since, until: q.until, journey: q.journey };
}

export function conformanceApi(t: Transport) {
  return {
    tpps: () => t.request<TppSeen[]>("GET", "/conformance/tpps"),
    report: (q: ReportQuery) => t.request<Report>("GET", "/conformance", undefined, { query: query(q) }),
    /** The report as a file's text: JSON (pretty), JUnit XML or HTML. */
    async file(format: ExportFormat, q: ReportQuery, report: Report | null): Promise<string> {
      if (format === "json") return `${JSON.stringify(report ?? (await this.report(q)), null, 2)}\n`;
      return t.request<string>("GET", `/conformance/${format}`, undefined, { query: query(q), text: true });
    },
  };
}

/** The file name and media type an export is saved under. */
export const EXPORTS: Record<ExportFormat, { label: string; name: string; type: string }> = {
  json: { label: "Export JSON", name: "conformance.json", type: "application/json" },
  junit: { label: "Export JUnit", name: "conformance.junit.xml", type: "application/xml" },
  html: { label: "Export HTML", name: "conformance.html", type: "text/html" },
};
