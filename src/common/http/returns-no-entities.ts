import { SetMetadata } from '@nestjs/common';

/** The metadata key of {@link ReturnsNoEntities}. */
export const RETURNS_NO_ENTITIES = 'returns-no-entities';

/**
 * Marks a controller, or one handler, whose responses never hold entities (OAuth, discovery documents, health): what
 * post-processes entities in responses, such as file-field resolution, leaves its requests alone, and NestJS's
 * interceptor chain with it when nothing else is bound. Leaving the mark out costs time, never correctness.
 */
export const ReturnsNoEntities = (): ClassDecorator & MethodDecorator => SetMetadata(RETURNS_NO_ENTITIES, true);
