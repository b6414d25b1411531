import 'tus-js-client';

declare module 'tus-js-client' {
  /** Node.js: remembers upload URLs in a JSON file, so that a later process can resume (not in the package's types). */
  export class FileUrlStorage implements UrlStorage {
    constructor(path: string);
    findAllUploads(): Promise<PreviousUpload[]>;
    findUploadsByFingerprint(fingerprint: string): Promise<PreviousUpload[]>;
    removeUpload(urlStorageKey: string): Promise<void>;
    addUpload(fingerprint: string, upload: PreviousUpload): Promise<string>;
  }
}
