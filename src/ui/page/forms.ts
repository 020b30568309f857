/** Reading the page's forms: every control posts through a form, read here the same way. */

/** A form's fields by name, trimmed; empty ones left out. Stops the browser's own submission. */
export function fieldsOf(event: Event): Record<string, string> {
  event.preventDefault();
  const form = (event.currentTarget ?? event.target) as HTMLFormElement;
  const fields: Record<string, string> = {};
  new FormData(form).forEach((value, name) => {
    if (typeof value === 'string' && value.trim() !== '') fields[name] = value.trim();
  });
  return fields;
}
