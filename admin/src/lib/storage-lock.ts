/**
 * A lock the tabs of one origin share through localStorage, for pages without Web Locks (a page
 * over plain HTTP at a LAN address is no secure context, and `navigator.locks` is then missing).
 * A tab writes its claim, waits for other tabs' writes to reach it, and holds the lock if its claim
 * is still the one stored. localStorage is not atomic across tabs, so two tabs may rarely both
 * hold it; the server answers a refresh cookie repeated within seconds with the same session,
 * which covers that. A claim lapses after LEASE_MS, so a tab closed mid-task blocks no one for long.
 */
const LEASE_MS = 10_000;
/** Long enough for another tab's write to reach this one (they cross in well under a millisecond). */
const SETTLE_MS = 40;
const POLL_MS = 50;

interface Claim {
  owner: string;
  until: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function readClaim(key: string): Claim | null {
  try {
    const claim = JSON.parse(localStorage.getItem(key) ?? "null") as Claim | null;
    return claim && typeof claim.owner === "string" && typeof claim.until === "number" ? claim : null;
  } catch {
    return null;
  }
}

function storageUsable(): boolean {
  try {
    localStorage.setItem("photodrop.lock-probe", "1");
    localStorage.removeItem("photodrop.lock-probe");
    return true;
  } catch {
    return false;
  }
}

/** Runs `task` while holding the lock `name` across this origin's tabs; without storage, runs it at once. */
export async function withStorageLock<T>(name: string, task: () => Promise<T>): Promise<T> {
  if (!storageUsable()) return task();
  const key = `photodrop.lock.${name}`;
  const owner = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  for (;;) {
    const claim = readClaim(key);
    if (!claim || claim.until <= Date.now()) {
      localStorage.setItem(key, JSON.stringify({ owner, until: Date.now() + LEASE_MS }));
      await sleep(SETTLE_MS);
      if (readClaim(key)?.owner === owner) break;
    } else {
      await sleep(POLL_MS);
    }
  }
  try {
    return await task();
  } finally {
    if (readClaim(key)?.owner === owner) localStorage.removeItem(key);
  }
}
