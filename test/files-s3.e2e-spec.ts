import { describeFilesSuite } from './support/files-suite.js';
import { startS3Server } from './support/s3-server.js';

describeFilesSuite('S3', { start: () => startS3Server() });
