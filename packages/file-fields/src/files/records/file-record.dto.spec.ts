import { FileRecordDto, isoString } from './file-record.dto.js';
import type { FileRecord } from './file-record.entity.js';

describe('FileRecordDto', () => {
  it('has the JSON keys in their documented order, with ISO timestamps and the URL it is given', () => {
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
      width: 640,
      height: 480,
      variants: null,
      createdAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)),
      updatedAt: new Date(Date.UTC(2026, 10, 23, 13, 35, 8, 71)),
    };
    const url = 'https://api.example.com/files/3/signed?expires=1795440000&signature=x';
    expect(JSON.stringify(FileRecordDto.from(record, url))).toBe(
      JSON.stringify({
        id: 3,
        path: 'product/7/key',
        url,
        attachment_id: 7,
        attachment_type: 'product',
        field: 'gallery',
        sort_order: 1,
        original_name: 'photo.png',
        mime_type: 'image/png',
        size: 42,
        width: 640,
        height: 480,
        checksum_sha256: 'a'.repeat(64),
        created_at: '2026-01-02T03:04:05.006Z',
        updated_at: '2026-11-23T13:35:08.071Z',
      }),
    );
    expect(FileRecordDto.from(record)).toBeInstanceOf(FileRecordDto);
    // Webhook events carry records without a URL: it would expire while the event waits for its delivery.
    expect(Object.keys(JSON.parse(JSON.stringify(FileRecordDto.from(record))))).not.toContain('url');
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
