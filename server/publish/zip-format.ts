/**
 * The records of a store-mode ZIP (PKWARE APPNOTE 6.3): local file headers, data descriptors, the
 * central directory and the end records, with ZIP64 fields wherever a size or offset does not fit
 * 32 bits (or for every entry, when forced).
 */

const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
/** Version 4.5: ZIP64. */
const VERSION_ZIP64 = 45;
/** Version 2.0: what any reader handles. */
const VERSION_PLAIN = 20;
/** Made by Unix (3), version 4.5: external attributes are Unix modes. */
const MADE_BY = (3 << 8) | VERSION_ZIP64;
/** A regular file, rw-r--r--. */
const FILE_MODE = 0o100644;
/** Bit 3: CRC and sizes follow the data; bit 11: the name is UTF-8. */
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;

export interface ZipEntry {
  name: Buffer;
  /** Seconds-precision DOS date and time, as a 32-bit number (date << 16 | time). */
  dosTime: number;
  crc: number;
  size: number;
  offset: number;
  /** CRC and sizes were written after the data. */
  descriptor: boolean;
  /** Its local header carries a ZIP64 extra field (sizes in the descriptor are then 8 bytes). */
  zip64: boolean;
}

/** In UTC (as archiver wrote it before), clamped to what DOS dates can hold. */
export function dosTime(date: Date): number {
  const year = date.getUTCFullYear();
  if (year < 1980) return 0x00210000;
  if (year >= 2044) return 0x7f9fbf7d;
  return (
    (((year - 1980) << 25) |
      ((date.getUTCMonth() + 1) << 21) |
      (date.getUTCDate() << 16) |
      (date.getUTCHours() << 11) |
      (date.getUTCMinutes() << 5) |
      Math.floor(date.getUTCSeconds() / 2)) >>>
    0
  );
}

const writeU64 = (buffer: Buffer, value: number, at: number) => buffer.writeBigUInt64LE(BigInt(value), at);

/** The local file header; with a descriptor, its CRC and sizes are zero and follow the data. */
export function localHeader(entry: ZipEntry): Buffer {
  const extra = entry.zip64 ? 20 : 0;
  const header = Buffer.alloc(30 + entry.name.length + extra);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(entry.zip64 ? VERSION_ZIP64 : VERSION_PLAIN, 4);
  header.writeUInt16LE(FLAG_UTF8 | (entry.descriptor ? FLAG_DESCRIPTOR : 0), 6);
  header.writeUInt16LE(0, 8);
  header.writeUInt32LE(entry.dosTime, 10);
  header.writeUInt32LE(entry.descriptor ? 0 : entry.crc, 14);
  const size = entry.descriptor ? 0 : entry.size;
  header.writeUInt32LE(entry.zip64 ? MAX32 : size, 18);
  header.writeUInt32LE(entry.zip64 ? MAX32 : size, 22);
  header.writeUInt16LE(entry.name.length, 26);
  header.writeUInt16LE(extra, 28);
  entry.name.copy(header, 30);
  if (entry.zip64) {
    const at = 30 + entry.name.length;
    header.writeUInt16LE(0x0001, at);
    header.writeUInt16LE(16, at + 2);
    writeU64(header, size, at + 4);
    writeU64(header, size, at + 12);
  }
  return header;
}

/** The CRC and sizes after an entry's data (8-byte sizes for a ZIP64 entry). */
export function dataDescriptor(entry: ZipEntry): Buffer {
  const descriptor = Buffer.alloc(entry.zip64 ? 24 : 16);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(entry.crc, 4);
  if (entry.zip64) {
    writeU64(descriptor, entry.size, 8);
    writeU64(descriptor, entry.size, 16);
  } else {
    descriptor.writeUInt32LE(entry.size, 8);
    descriptor.writeUInt32LE(entry.size, 12);
  }
  return descriptor;
}

/** One entry of the central directory; sizes and offset past 32 bits (or all, when forced) go in a ZIP64 extra field. */
export function centralHeader(entry: ZipEntry, forceZip64: boolean): Buffer {
  const bigSize = forceZip64 || entry.size >= MAX32;
  const bigOffset = forceZip64 || entry.offset >= MAX32;
  const extraData = (bigSize ? 16 : 0) + (bigOffset ? 8 : 0);
  const extra = extraData > 0 ? 4 + extraData : 0;
  const header = Buffer.alloc(46 + entry.name.length + extra);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(MADE_BY, 4);
  header.writeUInt16LE(extra > 0 || entry.zip64 ? VERSION_ZIP64 : VERSION_PLAIN, 6);
  header.writeUInt16LE(FLAG_UTF8 | (entry.descriptor ? FLAG_DESCRIPTOR : 0), 8);
  header.writeUInt16LE(0, 10);
  header.writeUInt32LE(entry.dosTime, 12);
  header.writeUInt32LE(entry.crc, 16);
  header.writeUInt32LE(bigSize ? MAX32 : entry.size, 20);
  header.writeUInt32LE(bigSize ? MAX32 : entry.size, 24);
  header.writeUInt16LE(entry.name.length, 28);
  header.writeUInt16LE(extra, 30);
  header.writeUInt16LE(0, 32);
  header.writeUInt16LE(0, 34);
  header.writeUInt16LE(0, 36);
  header.writeUInt32LE((FILE_MODE << 16) >>> 0, 38);
  header.writeUInt32LE(bigOffset ? MAX32 : entry.offset, 42);
  entry.name.copy(header, 46);
  if (extra > 0) {
    let at = 46 + entry.name.length;
    header.writeUInt16LE(0x0001, at);
    header.writeUInt16LE(extraData, at + 2);
    at += 4;
    if (bigSize) {
      writeU64(header, entry.size, at);
      writeU64(header, entry.size, at + 8);
      at += 16;
    }
    if (bigOffset) writeU64(header, entry.offset, at);
  }
  return header;
}

/**
 * The end of the archive: the ZIP64 end record and its locator when forced or when a count,
 * size or offset does not fit, then the classic end record (with 0xFFFF… where ZIP64 holds the value).
 */
export function endRecords(
  entries: number,
  directoryOffset: number,
  directorySize: number,
  forceZip64: boolean,
): Buffer {
  const zip64 = forceZip64 || entries >= MAX16 || directoryOffset >= MAX32 || directorySize >= MAX32;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(zip64 ? MAX16 : entries, 8);
  end.writeUInt16LE(zip64 ? MAX16 : entries, 10);
  end.writeUInt32LE(zip64 ? MAX32 : directorySize, 12);
  end.writeUInt32LE(zip64 ? MAX32 : directoryOffset, 16);
  if (!zip64) return end;
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  writeU64(record, 44, 4);
  record.writeUInt16LE(MADE_BY, 12);
  record.writeUInt16LE(VERSION_ZIP64, 14);
  writeU64(record, entries, 24);
  writeU64(record, entries, 32);
  writeU64(record, directorySize, 40);
  writeU64(record, directoryOffset, 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  writeU64(locator, directoryOffset + directorySize, 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([record, locator, end]);
}
