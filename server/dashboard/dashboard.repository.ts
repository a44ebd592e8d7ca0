import type { Db } from "../db/database";

export async function countEverything(db: Db) {
  const [clients, projects, attachments] = await Promise.all([
    db("clients").count({ n: "*" }).first(),
    db("projects").count({ n: "*" }).first(),
    db("attachments").count({ n: "*" }).sum({ bytes: "size" }).first(),
  ]);
  return {
    clientCount: Number(clients?.n ?? 0),
    projectCount: Number(projects?.n ?? 0),
    attachmentCount: Number(attachments?.n ?? 0),
    totalFileSize: Number(attachments?.bytes ?? 0),
  };
}
