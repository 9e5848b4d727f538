import { boolean, integer, nullable, object, ref, timestamp, uuid } from '../json-schema.ts';
import type { EventCatalogPart } from './types.ts';

/** Templates. */
export const TEMPLATE_EVENTS: EventCatalogPart = {
  // Templates (stream template-<template_id>)
  'template.created': {
    summary: 'A template was created (team_id null and gallery true for a gallery template).',
    stream: 'template-<template_id>',
    data: {
      allOf: [
        ref('TemplateContent'),
        object({ template_id: uuid, team_id: nullable(uuid), gallery: boolean, created_at: timestamp }),
      ],
    },
  },
  'template.updated': {
    summary:
      'The builder saved a template: its whole new definition and version; onboardings created before keep their snapshot.',
    stream: 'template-<template_id>',
    data: {
      allOf: [
        ref('TemplateContent'),
        object({ template_id: uuid, team_id: uuid, version: integer({ minimum: 2 }), updated_at: timestamp }),
      ],
    },
  },
  'template.deleted': {
    summary: 'A template was deleted.',
    stream: 'template-<template_id>',
    data: object({ template_id: uuid, team_id: nullable(uuid), deleted_at: timestamp }),
  },
};
