import type { Projection } from './projection.ts';

/** Every read model the service keeps, in the order they are applied. */
export const allProjections: Projection[] = [];
