import { AppError } from '../kernel/errors/app-error';

/**
 * `fieldSelector=` as apimachinery pkg/fields/selector.go parses it: terms joined by `,`, each
 * `field=value`, `field==value` or `field!=value` (`\` escapes `,` `=` `!` `\` in values). Which fields
 * a resource supports is the resource's choice (pkg/registry/core/<kind>/strategy.go ToSelectableFields);
 * any other field is refused with the API server's 400 wording.
 */
export interface FieldRequirement {
  field: string;
  operator: '=' | '!=';
  value: string;
}

export function parseFieldSelector(selector: string | undefined): FieldRequirement[] {
  if (selector === undefined || selector.trim() === '') return [];
  const out: FieldRequirement[] = [];
  for (const term of splitUnescaped(selector, ',')) {
    if (term === '') continue;
    const match = /^([^=!]*)(!=|==|=)(.*)$/s.exec(term);
    if (!match) throw new AppError('BadRequest', `invalid selector: '${selector}'; can't understand '${term}'`);
    out.push({ field: match[1].trim(), operator: match[2] === '!=' ? '!=' : '=', value: unescape(match[3]) });
  }
  return out;
}

/** A matcher over the resource's selectable fields; unsupported fields fail as upstream does. */
export function compileFieldSelector(
  selector: string | undefined,
  supported: readonly string[],
): (fields: Record<string, string>) => boolean {
  const requirements = parseFieldSelector(selector);
  for (const r of requirements) {
    if (!supported.includes(r.field)) {
      throw new AppError('BadRequest', `field label not supported: ${r.field}`);
    }
  }
  return (fields) => requirements.every((r) => (fields[r.field] === r.value) === (r.operator === '='));
}

/** The value a selector must equal for `field` (e.g. `spec.nodeName=n1`), when it pins one. */
export function pinnedValue(selector: string | undefined, field: string): string | undefined {
  return parseFieldSelector(selector).find((r) => r.field === field && r.operator === '=')?.value;
}

function splitUnescaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && i + 1 < text.length) {
      current += text[i] + text[i + 1];
      i++;
    } else if (text[i] === separator) {
      parts.push(current);
      current = '';
    } else current += text[i];
  }
  parts.push(current);
  return parts;
}

function unescape(value: string): string {
  return value.replace(/\\(.)/g, '$1');
}
