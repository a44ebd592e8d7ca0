/** A backup or restore that cannot go ahead; its message is meant for the person running it. */
export class BackupError extends Error {}
