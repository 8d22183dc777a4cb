import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { z } from 'zod';
import { isObject } from '../shared/index.js';

/** A JSON Schema as MCP servers send it, validated with ajv. */
export interface JsonSchemaInput {
  kind: 'json-schema';
  schema: Record<string, unknown>;
}

export type InputSchema<I> = z.ZodType<I> | JsonSchemaInput;

export function jsonSchemaInput(schema: Record<string, unknown>): JsonSchemaInput {
  return { kind: 'json-schema', schema };
}

function isJsonSchema<I>(s: InputSchema<I>): s is JsonSchemaInput {
  return (s as JsonSchemaInput).kind === 'json-schema';
}

const NUMBER = /^-?\d+(\.\d+)?$/;

/** A number that models sometimes send as a string: `"5"` becomes 5; anything else is left to fail. */
export function semanticNumber<T extends z.ZodType = z.ZodNumber>(inner?: T) {
  const target = (inner ?? z.number()) as T;
  return z.preprocess((v) => (typeof v === 'string' && NUMBER.test(v.trim()) ? Number(v) : v), target);
}

/** A boolean that models sometimes send as `"true"` or `"false"`. */
export function semanticBoolean() {
  return z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());
}

export type ParsedInput<I> = { ok: true; data: I } | { ok: false; message: string };

const ajv = new Ajv({ allErrors: true, coerceTypes: true, useDefaults: true, strict: false });
const compiled = new WeakMap<object, ValidateFunction | Error>();

function validatorFor(schema: Record<string, unknown>): ValidateFunction | Error {
  let v = compiled.get(schema);
  if (!v) {
    const { $schema: _ignored, ...rest } = schema;
    try {
      v = ajv.compile(rest);
    } catch (e) {
      v = e as Error;
    }
    compiled.set(schema, v);
  }
  return v;
}

const tick = (path: readonly PropertyKey[]) => `\`${path.map(String).join('.') || 'input'}\``;

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const k of path)
    v = typeof v === 'object' && v !== null ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  return Array.isArray(v) ? 'array' : typeof v;
}

function zodIssues(error: z.ZodError, input: unknown): string[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => `An unexpected parameter ${tick([...issue.path, k])} was provided`);
    }
    if (issue.code === 'invalid_type') {
      const actual = valueAt(input, issue.path);
      if (actual === undefined) return [`The required parameter ${tick(issue.path)} is missing`];
      return [
        `The parameter ${tick(issue.path)} type is expected as \`${issue.expected}\` but provided as \`${typeName(actual)}\``,
      ];
    }
    return [`${tick(issue.path)}: ${issue.message}`];
  });
}

function ajvIssues(errors: ErrorObject[]): string[] {
  return errors.map((e) => {
    const path = e.instancePath.split('/').filter(Boolean);
    if (e.keyword === 'required') {
      return `The required parameter ${tick([...path, String(e.params.missingProperty)])} is missing`;
    }
    if (e.keyword === 'additionalProperties') {
      return `An unexpected parameter ${tick([...path, String(e.params.additionalProperty)])} was provided`;
    }
    if (e.keyword === 'type')
      return `The parameter ${tick(path)} type is expected as \`${String(e.params.type)}\``;
    return `${tick(path)}: ${e.message ?? e.keyword}`;
  });
}

function failure(tool: string, issues: string[]): { ok: false; message: string } {
  const plural = issues.length === 1 ? 'issue' : 'issues';
  return {
    ok: false,
    message: `InputValidationError: ${tool} failed due to the following ${plural}:\n${issues.join('\n')}`,
  };
}

/** Parses and coerces a tool's raw input; the failure message is written for the model. */
export function parseInput<I>(schema: InputSchema<I>, raw: unknown, tool: string): ParsedInput<I> {
  if (isJsonSchema(schema)) {
    const validate = validatorFor(schema.schema);
    if (validate instanceof Error)
      return failure(tool, [`the tool's input schema is invalid: ${validate.message}`]);
    if (!isObject(raw)) {
      return failure(tool, [`The input must be an object, not ${typeName(raw)}`]);
    }
    const data = structuredClone(raw);
    if (validate(data)) return { ok: true, data: data as I };
    return failure(tool, ajvIssues(validate.errors ?? []));
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, data: parsed.data };
  return failure(tool, zodIssues(parsed.error, raw));
}

/** The input schema as JSON Schema, for the API's `tools` parameter and for ToolSearch. */
export function inputJsonSchema<I>(schema: InputSchema<I>): Record<string, unknown> {
  if (isJsonSchema(schema)) return schema.schema;
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return rest;
}
