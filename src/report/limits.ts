/** How much of a recording a report carries; past these, frames are summarised and the page says so. */
export interface ReportLimitOptions {
  /** Total bytes of frame text kept; later frames keep their annotations only. */
  maxText: number;
  /** Frames and events drawn and listed; the rest are counted (stats, check) but not drawn. */
  maxFrames: number;
}

export const defaultReportLimits: ReportLimitOptions = { maxText: 64 * 1024 * 1024, maxFrames: 50_000 };
