import type { Provider } from '@nestjs/common';
import { FileUrls } from '../urls/file-urls.js';
import { FileVariants } from './variants/file-variants.service.js';
import { FileVariantsRepository } from './variants/file-variants.repository.js';
import { ImageProbe } from './probe/image-probe.js';
import { VariantProduction } from './variants/variant-production.js';

/** The parts of image sizes and variants, for FileFieldsModule; FileVariants lists variants with their URLs. */
export const IMAGE_PROVIDERS: Provider[] = [
  ImageProbe,
  FileVariants,
  VariantProduction,
  FileVariantsRepository,
  FileUrls,
];
