type JsonSchema = Record<string, unknown>;

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema without its own `description` (routes describe a shared schema their own way). */
function withoutDescription(schema: JsonSchema): JsonSchema {
  const { description: _description, ...rest } = schema;
  return rest;
}

const canonical = (schema: JsonSchema) => JSON.stringify(withoutDescription(schema));

/**
 * Puts `components` (name → JSON schema) into the document's components.schemas and
 * replaces every inline schema equal to one of them (its `description` aside) by a
 * `$ref`, keeping the inline description beside it (OpenAPI 3.1 allows siblings of
 * $ref). The components themselves refer to each other the same way, inner first, so a
 * Client list refers to Client. Equality is structural: the route schemas and the
 * components come from the same zod schemas through the same conversion.
 */
export function hoistComponents(document: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const byShape = new Map<string, string>();
  for (const [name, schema] of Object.entries(components)) {
    // Only structured schemas: a bare string component would swallow every string.
    const structured = ['properties', 'anyOf', 'oneOf', 'items'].some((key) => key in schema);
    if (structured && !byShape.has(canonical(schema))) byShape.set(canonical(schema), name);
  }
  const replace = (value: unknown, own?: string): unknown => {
    if (Array.isArray(value)) return value.map((item) => replace(item));
    if (!isObject(value)) return value;
    const name = byShape.get(canonical(value));
    if (name !== undefined && name !== own) {
      const ref: JsonSchema = { $ref: `#/components/schemas/${name}` };
      const description = value.description;
      const componentDescription = components[name]?.description;
      if (typeof description === 'string' && description !== componentDescription)
        ref.description = description;
      return ref;
    }
    const result: JsonSchema = {};
    for (const [key, child] of Object.entries(value)) {
      // Examples are values, never schemas.
      result[key] = key === 'example' || key === 'examples' ? child : replace(child);
    }
    return result;
  };
  const schemas: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(components)) schemas[name] = replace(schema, name);
  const existing = isObject(document.components) ? document.components : {};
  const replaced = replace({ ...document, components: { ...existing, schemas: {} } }) as JsonSchema;
  const replacedComponents = isObject(replaced.components) ? replaced.components : {};
  const existingSchemas = isObject(existing.schemas) ? existing.schemas : {};
  return { ...replaced, components: { ...replacedComponents, schemas: { ...existingSchemas, ...schemas } } };
}
