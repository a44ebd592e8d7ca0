/** A backup or restore that cannot go ahead; its message is meant for the person running it. */
export class BackupError extends Error {}

/** A backup or restore that ran out of room: it names the disk and what was left behind. */
export function diskFullMessage(where: string, outcome: string): string {
  return `The disk holding ${where} is full: ${outcome}. Free some space there (or choose another disk) and try again.`;
}
