// The conformance report's exports: the report as a file's text in each format (JSON from the graded report,
// JUnit and HTML from the service) and the name and media type each is saved under.
import type { Client } from "../../api/client";
import type { ConformanceReport as Report, ConformanceReportQuery as ReportQuery } from "../../api/types";

export type ExportFormat = "json" | "junit" | "html";

/** The report as a file's text: JSON (pretty), JUnit XML or HTML. */
export async function reportFile(client: Client, format: ExportFormat, q: ReportQuery, report: Report | null) {
  if (format === "json") return `${JSON.stringify(report ?? (await client.conformance.report(q)), null, 2)}\n`;
  return format === "junit" ? client.conformance.junit(q) : client.conformance.html(q);
}

/** The file name and media type an export is saved under. */
export const EXPORTS: Record<ExportFormat, { label: string; name: string; type: string }> = {
  json: { label: "Export JSON", name: "conformance.json", type: "application/json" },
  junit: { label: "Export JUnit", name: "conformance.junit.xml", type: "application/xml" },
  html: { label: "Export HTML", name: "conformance.html", type: "text/html" },
};
