import { FileRecordDto, isoString } from './file-record.dto.js';
import type { FileRecord } from './file-record.entity.js';

describe('FileRecordDto', () => {
  it('has the JSON keys in their documented order, with ISO timestamps', () => {
    const record: FileRecord = {
      id: 3,
      storageKey: 'product/7/key',
      attachmentId: 7,
      attachmentType: 'product',
      field: 'gallery',
      sortOrder: 1,
      originalName: 'photo.png',
      mimeType: 'image/png',
      size: 42,
      checksumSha256: 'a'.repeat(64),
      createdAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)),
      updatedAt: new Date(Date.UTC(2026, 10, 23, 13, 35, 8, 71)),
    };
    expect(JSON.stringify(FileRecordDto.from(record))).toBe(
      JSON.stringify({
        id: 3,
        path: 'product/7/key',
        attachment_id: 7,
        attachment_type: 'product',
        field: 'gallery',
        sort_order: 1,
        original_name: 'photo.png',
        mime_type: 'image/png',
        size: 42,
        checksum_sha256: 'a'.repeat(64),
        created_at: '2026-01-02T03:04:05.006Z',
        updated_at: '2026-11-23T13:35:08.071Z',
      }),
    );
    expect(FileRecordDto.from(record)).toBeInstanceOf(FileRecordDto);
  });
});

describe('isoString', () => {
  it('formats like Date#toISOString', () => {
    const times = [0, 1, 999, 1000, 59_999, 86_399_999, 951_782_400_000, 1_795_440_783_471, 253_402_300_799_999];
    for (let t = -62_135_596_800_000; t < 253_402_300_800_000; t += 777_777_777_777) times.push(t);
    for (const time of [...times, -1, -62_135_596_800_001, 253_402_300_800_000, 8.64e15]) {
      expect(isoString(new Date(time))).toBe(new Date(time).toISOString());
    }
    expect(isoString('2026-11-23T13:35:08Z')).toBe('2026-11-23T13:35:08.000Z');
    expect(isoString(0)).toBe('1970-01-01T00:00:00.000Z');
  });

  it('refuses an invalid date as toISOString does', () => {
    expect(() => isoString(new Date(NaN))).toThrow(RangeError);
  });
});
