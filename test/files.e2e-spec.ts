import { describeFilesSuite } from './support/files-suite.js';

describeFilesSuite('local disk', {
  start: () => Promise.resolve({ env: {}, stop: () => Promise.resolve() }),
});
