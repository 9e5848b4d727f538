import type { DomainEvent } from '../../shared/commands/decider.ts';

/** Stream of one template (team or gallery): `template-<template_id>`. */
export const templateStreamId = (templateId: string) => `template-${templateId}`;

/** JSON whose inner structure the spec leaves open (config, conditional_rules, settings, translations). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface TemplateField {
  id: string;
  type: string;
  label: string;
  sort_order: number;
  is_required: boolean;
  config: Record<string, Json>;
  conditional_rules: Json;
  translations: Json;
}

export interface TemplateStep {
  id: string;
  title: string;
  sort_order: number;
  is_optional: boolean;
  conditional_rules: Json;
  translations: Json;
  fields: TemplateField[];
}

/**
 * The form structure as the spec's Onboarding `template_snapshot` gives it: what an
 * onboarding copies when it is created.
 */
export interface TemplateContent {
  name: string;
  description: string | null;
  vertical: string | null;
  settings: Record<string, Json>;
  translations: Json;
  steps: TemplateStep[];
}

/** `team_id` is null and `gallery` true for a gallery template. */
export type TemplateCreated = DomainEvent<
  'template.created',
  TemplateContent & { template_id: string; team_id: string | null; gallery: boolean; created_at: string }
>;

export type TemplateDeleted = DomainEvent<
  'template.deleted',
  { template_id: string; team_id: string | null; deleted_at: string }
>;

/**
 * The builder saved a template: the whole new definition, and its `version` (1 when
 * created, one more per update) that the next save must name. Onboardings created before
 * keep their own snapshot.
 */
export type TemplateUpdated = DomainEvent<
  'template.updated',
  TemplateContent & { template_id: string; team_id: string; version: number; updated_at: string }
>;

export type TemplateEvent = TemplateCreated | TemplateUpdated | TemplateDeleted;
