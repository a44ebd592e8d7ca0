import os from "node:os";

/** The line each bench ends with: figures are only comparable on a machine as quiet as this says. */
export const loadAverageLine = (when = "at the end") =>
  `Load average ${when}: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")} on ${os.cpus().length} cores`;
