declare module 's3rver' {
  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    resetOnClose?: boolean;
    configureBuckets?: Array<{ name: string }>;
  }
  /** The filesystem store behind the server (s3rver's `lib/stores/filesystem.js`); only what the tests use. */
  interface FilesystemStore {
    getResourcePath(bucket: string, key: string, resource: 'object' | 'object.md5' | 'metadata.json'): string;
    deleteObject(bucket: string, key: string): Promise<void>;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    readonly store: FilesystemStore;
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
