/** Small DOM helpers shared by the portal and the capture app. */

/**
 * The element with this id, checked to be of the expected class.
 *
 * @example
 * const form = element('sign-in', HTMLFormElement);
 * @throws {Error} when the page has no such element (a page and script out of step)
 */
export function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`the page has no ${type.name} #${id}`);
  return found;
}

/**
 * Shows exactly one of the sections (the others are hidden from sight and from assistive technology), and
 * moves the focus to its heading so a screen reader announces the new step.
 *
 * @example
 * showOnly(sections, 'camera');
 */
export function showOnly(sections: Readonly<Record<string, HTMLElement>>, name: string): void {
  for (const [key, section] of Object.entries(sections)) section.hidden = key !== name;
  const heading = sections[name]?.querySelector<HTMLElement>('h2, h1');
  if (heading) {
    heading.tabIndex = -1;
    heading.focus();
  }
}

/**
 * The string value of a form field.
 *
 * @example
 * const username = fieldValue(form, 'username');
 */
export function fieldValue(form: HTMLFormElement, name: string): string {
  const value = new FormData(form).get(name);
  return typeof value === 'string' ? value.trim() : '';
}
