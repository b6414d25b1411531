/** The service's files: the configuration it gives @file-fields/nest, read from its environment. */
export { fileFieldsOptionsFrom, filesConfig, type FilesConfig } from './files.config.js';
