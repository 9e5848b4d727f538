import { inject } from 'vitest';

/** Addresses of the containers the global setup started, as the service's settings spell them. */
export interface ContainerStack {
  eventStoreUrl: string;
  kafkaBrokers: string;
  postgresUrl: string;
}

export type ContainerContext = { stack: ContainerStack } | { skipped: string };

declare module 'vitest' {
  export interface ProvidedContext {
    containers: ContainerContext;
  }
}

/** The running stack, or undefined when there is no Docker engine (the setup printed why). */
export function containerStack(): ContainerStack | undefined {
  const context = inject('containers');
  return 'stack' in context ? context.stack : undefined;
}
