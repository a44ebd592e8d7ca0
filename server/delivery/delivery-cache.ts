import type { Db } from "../db/database";
import type { EventBus, ResourceChange } from "../events/bus";
import { RecentlyUsed } from "./recently-used";
import { findLinkByToken, photosOf, type DeliveryLink, type DeliveryPhoto } from "./delivery.repository";
import type { PhotoOrder } from "../attachments/photo-order";

/** Links kept at most, least recently used out first. */
const MAX_LINKS = 1_000;
/** Photos kept at most over every link (about 200 bytes each). */
const MAX_PHOTOS = 100_000;

interface PhotoList {
  photos: DeliveryPhoto[];
  bytes: number;
  order: PhotoOrder;
}

interface PhotoLoad {
  photos: Promise<DeliveryPhoto[]>;
  order: PhotoOrder;
  /** Set when the project's photos change while it loads: the result is used once, not kept. */
  spoiled: boolean;
}

/**
 * What every delivery request looks up, kept in memory: the link by its token (project, expiry,
 * passcode) and the link's photos in the ZIP's order. Whatever changes a link or its photos is
 * announced on the bus (a project or attachment change, from this process or, through the relay,
 * from another), and drops what it touches before the next request is answered:
 *
 * - a project change drops its link, which the next request reads again (one row); its photos stay
 *   while the row's photo count and bytes still match them (a page view changes neither);
 * - an attachment change drops the photos of the link holding it;
 * - a break in the relay's connection (announcements may be lost) drops everything;
 * - with several processes, each request first waits for the bus to have caught up with what the
 *   others committed (`EventBus.caughtUp`); when it cannot know, the request reads the database.
 *
 * A load that a change overtook is used for the request that made it but not kept.
 */
export class DeliveryCache {
  private readonly links = new RecentlyUsed<string, DeliveryLink>();
  private readonly tokenOfProject = new Map<number, string>();
  private readonly photoLists = new RecentlyUsed<number, PhotoList>();
  private readonly projectOfPhoto = new Map<number, number>();
  /** Reads of a link under way, with the generation each began in: a later one must not join an earlier. */
  private readonly linkLoads = new Map<string, { link: Promise<DeliveryLink | undefined>; generation: number }>();
  private readonly photoLoads = new Map<number, PhotoLoad>();
  private photosKept = 0;
  /** Bumped whenever links are dropped: a link read before that may be stale. */
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
  ) {
    events.onResourceChanged((change) => this.changed(change));
    events.onAnnouncementsLost(() => this.clear());
  }

  /** The published project behind a token, or undefined. */
  async link(token: string): Promise<DeliveryLink | undefined> {
    const trusted = await this.events.caughtUp();
    if (!trusted) return findLinkByToken(this.db, token);
    const kept = this.links.use(token);
    if (kept) return kept;
    // A read begun before a change may have missed it: a request made after the change reads again.
    let load = this.linkLoads.get(token);
    if (!load || load.generation !== this.generation) {
      const started = { link: findLinkByToken(this.db, token), generation: this.generation };
      this.linkLoads.set(token, started);
      const done = () => {
        if (this.linkLoads.get(token) === started) this.linkLoads.delete(token);
      };
      void started.link.then((link) => {
        done();
        if (link && started.generation === this.generation) this.keepLink(link);
      }, done);
      load = started;
    }
    return load.link;
  }

  /**
   * The link and its photos when both are in memory and memory can be trusted without asking (one
   * process: no bus to catch up with); otherwise undefined, and `link`/`photos` answer.
   */
  peek(token: string): { link: DeliveryLink; photos: DeliveryPhoto[] } | undefined {
    if (!this.events.alone) return undefined;
    const link = this.links.use(token);
    const list = link && this.currentList(link);
    if (!link || !list) return undefined;
    return { link, photos: list.photos };
  }

  /** The link's photos in the ZIP's order. */
  async photos(link: DeliveryLink): Promise<DeliveryPhoto[]> {
    const kept = this.links.get(link.token) === link;
    const list = kept ? this.currentList(link) : undefined;
    if (list) return list.photos;
    const order = link.photoOrder;
    if (!kept) return photosOf(this.db, link.projectId, order);
    let load = this.photoLoads.get(link.projectId);
    if (!load || load.order !== order) {
      if (load) load.spoiled = true;
      const started: PhotoLoad = { photos: photosOf(this.db, link.projectId, order), order, spoiled: false };
      this.photoLoads.set(link.projectId, started);
      const done = () => {
        if (this.photoLoads.get(link.projectId) === started) this.photoLoads.delete(link.projectId);
      };
      void started.photos.then((photos) => {
        done();
        if (!started.spoiled) this.keepPhotos(link.projectId, photos, order);
      }, done);
      load = started;
    }
    return load.photos;
  }

  /** The link's kept photos while the row's count and bytes still match them, marked used. */
  private currentList(link: DeliveryLink): PhotoList | undefined {
    // Marked used even when stale: a stale list is replaced by the next load anyway.
    const list = this.photoLists.use(link.projectId);
    if (!list || list.photos.length !== link.photoCount || list.bytes !== link.photoBytes) return undefined;
    // Kept in another order (changed while the project was unpublished, its link kept).
    if (list.order !== link.photoOrder) return undefined;
    return list;
  }

  private keepLink(link: DeliveryLink): void {
    const previous = this.tokenOfProject.get(link.projectId);
    if (previous !== undefined) this.links.delete(previous);
    this.links.set(link.token, link);
    this.tokenOfProject.set(link.projectId, link.token);
    if (this.links.size > MAX_LINKS) {
      const [oldest, dropped] = this.links.leastRecentlyUsed()!;
      this.links.delete(oldest);
      this.tokenOfProject.delete(dropped.projectId);
    }
  }

  private keepPhotos(projectId: number, photos: DeliveryPhoto[], order: PhotoOrder): void {
    if (photos.length > MAX_PHOTOS) return;
    this.forgetPhotos(projectId);
    this.photoLists.set(projectId, {
      photos,
      bytes: photos.reduce((sum, p) => sum + p.size, 0),
      order,
    });
    for (const photo of photos) this.projectOfPhoto.set(photo.id, projectId);
    this.photosKept += photos.length;
    while (this.photosKept > MAX_PHOTOS) this.forgetPhotos(this.photoLists.leastRecentlyUsed()![0]);
  }

  private changed(change: ResourceChange): void {
    if (change.resource === "projects") {
      for (const id of change.ids) this.forgetLink(Number(id));
    } else if (change.resource === "attachments") {
      for (const id of change.ids) {
        const projectId = this.projectOfPhoto.get(Number(id));
        if (projectId !== undefined) this.forgetPhotos(projectId);
      }
    }
  }

  private forgetLink(projectId: number): void {
    this.generation++;
    const token = this.tokenOfProject.get(projectId);
    if (token === undefined) return;
    this.tokenOfProject.delete(projectId);
    this.links.delete(token);
  }

  private forgetPhotos(projectId: number): void {
    const load = this.photoLoads.get(projectId);
    if (load) load.spoiled = true;
    const list = this.photoLists.get(projectId);
    if (!list) return;
    this.photoLists.delete(projectId);
    this.photosKept -= list.photos.length;
    for (const photo of list.photos) this.projectOfPhoto.delete(photo.id);
  }

  private clear(): void {
    this.generation++;
    this.links.clear();
    this.tokenOfProject.clear();
    for (const projectId of [...this.photoLists.keys(), ...this.photoLoads.keys()]) this.forgetPhotos(projectId);
  }
}

const caches = new WeakMap<object, DeliveryCache>();

/** The delivery cache of one running app (tests run several apps in one process). */
export function deliveryCache(ctx: { db: Db; events: EventBus }): DeliveryCache {
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = new DeliveryCache(ctx.db, ctx.events)));
  return cache;
}
