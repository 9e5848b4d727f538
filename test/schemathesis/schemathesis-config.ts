/**
 * The schemathesis.toml of the run. Secrets never appear in it (nor on the command line):
 * the headers name environment variables that schemathesis reads when it loads the file.
 * Known identifiers are offered through dictionaries, so about half of the generated
 * identifiers are a real team, client, template, onboarding, rule, field or step instead
 * of a 404; the other half keeps what schemathesis generates.
 */
export interface KnownIds {
  teamIds: string[];
  resourceIds: string[];
  clientIds: string[];
  templateIds: string[];
  onboardingIds: string[];
  ruleIds: string[];
  tokens: string[];
  fieldIds: string[];
  stepIds: string[];
}

export const ADMIN_TOKEN_VARIABLE = 'SCHEMATHESIS_ADMIN_TOKEN';
export const API_KEY_VARIABLE = 'SCHEMATHESIS_API_KEY';

const tomlString = (value: string) => JSON.stringify(value);
const tomlList = (values: string[]) => `[${values.map(tomlString).join(', ')}]`;

export function schemathesisConfig(ids: KnownIds): string {
  const dictionaries: Record<string, string[]> = {
    team_ids: ids.teamIds,
    resource_ids: ids.resourceIds,
    client_ids: ids.clientIds,
    template_ids: ids.templateIds,
    onboarding_ids: ids.onboardingIds,
    rule_ids: ids.ruleIds,
    tokens: ids.tokens,
    field_ids: ids.fieldIds,
    step_ids: ids.stepIds,
  };
  const bindings: Record<string, string> = {
    'path.team_id': 'team_ids',
    'path.id': 'resource_ids',
    'path.onboarding_id': 'onboarding_ids',
    'path.client_id': 'client_ids',
    'path.template_id': 'template_ids',
    'path.rule_id': 'rule_ids',
    'path.token': 'tokens',
    'path.field_id': 'field_ids',
    'path.step_id': 'step_ids',
    'query.client_id': 'client_ids',
    'query.onboarding_id': 'onboarding_ids',
    'body.client_id': 'client_ids',
    'body.template_id': 'template_ids',
  };
  return [
    ...Object.entries(dictionaries).flatMap(([name, values]) => [
      `[dictionaries.${name}]`,
      `values = ${tomlList(values)}`,
      '',
    ]),
    '[parameters]',
    ...Object.entries(bindings).map(
      ([parameter, dictionary]) =>
        `${tomlString(parameter)} = { dictionary = ${tomlString(dictionary)}, probability = 0.5 }`,
    ),
    '',
    '[[operations]]',
    'include-path-regex = "^/admin/v1/"',
    `headers = { Authorization = "Bearer \${${ADMIN_TOKEN_VARIABLE}}" }`,
    '',
    '[[operations]]',
    'include-path-regex = "^/api/v1/"',
    `headers = { Authorization = "Bearer \${${API_KEY_VARIABLE}}" }`,
    '',
  ].join('\n');
}
