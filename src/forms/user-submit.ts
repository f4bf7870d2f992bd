/**
 * Telling the person's own submit from a script's. In Chromium a `submit` event is trusted
 * (`isTrusted`) also when a script calls `form.requestSubmit()` or `button.click()`, so
 * `isTrusted` on the submit event alone is not consent. A submit counts only when it follows,
 * in the same task, the person's own trusted click on the submitter, or their trusted Enter in
 * the form (implicit submission). A script-made click or a dispatched `SubmitEvent` is never
 * consent. Capell Agent Schema: write tools use "the browser's user-mediation flow"; "Core does
 * not auto-submit them".
 */

/** The person's last input gesture, kept only until the task that carried it ends. */
interface Gesture {
  kind: 'click' | 'enter';
  target: EventTarget | null;
  event: MouseEvent | KeyboardEvent;
}

/**
 * Watches `form` for the person's submit. While watching:
 * - a submit the person made calls `onUserSubmit(event, gesture)` synchronously, inside the
 *   event dispatch, so the caller may still `preventDefault()` (and read the form data);
 *   `gesture` is the person's trusted `click` or Enter `keydown` that caused it (for the
 *   panel's consent check: where the click landed, which field had Enter);
 * - any other submit of `form` (`requestSubmit()`, a script's `button.click()`, a dispatched
 *   `SubmitEvent`) whose default is not yet prevented is blocked (`preventDefault()`), so the
 *   browser's native submission of the agent's values never happens without the person;
 * - a submit whose default the page's own handler already prevented is left alone, not reported:
 *   the site has taken it over. What that handler does (e.g. `fetch` the form data itself) is not
 *   blocked: `preventDefault()` only stops native submission, and a script's own request cannot
 *   be stopped from here. So a script submit on a form the site sends itself does leave the
 *   page; the guard covers the browser's submission path, not the page's scripts.
 * The submit listener sits on the window in the bubble phase, so the site's own submit handlers
 * run first and `event.defaultPrevented` says whether the site sends the form itself.
 * @returns a function that stops watching (idempotent).
 */
export function watchUserSubmit(form: HTMLFormElement, onUserSubmit: (event: SubmitEvent, gesture: MouseEvent | KeyboardEvent) => void): () => void {
  const doc = form.ownerDocument;
  const view = doc.defaultView ?? window;
  let gesture: Gesture | undefined;
  let clearing: ReturnType<typeof setTimeout> | undefined;

  const remember = (next: Gesture) => {
    gesture = next;
    clearTimeout(clearing);
    // The submit a gesture causes is dispatched in the same task; after it the gesture is stale.
    clearing = setTimeout(() => { gesture = undefined; }, 0);
  };
  const onClick = (event: MouseEvent) => {
    if (event.isTrusted) remember({ kind: 'click', target: event.target, event });
  };
  const onKeydown = (event: KeyboardEvent) => {
    if (event.isTrusted && event.key === 'Enter') remember({ kind: 'enter', target: event.target, event });
  };
  const isConsent = (event: SubmitEvent): boolean => {
    if (!event.isTrusted || !gesture) return false;
    const { submitter } = event;
    if (gesture.kind === 'click') return submitter !== null && gesture.target instanceof Node && submitter.contains(gesture.target);
    return gesture.target instanceof Node && form.contains(gesture.target);
  };
  const onSubmit = (event: Event) => {
    if (event.target !== form) return;
    const submit = event as SubmitEvent;
    if (isConsent(submit)) onUserSubmit(submit, gesture!.event);
    else if (!submit.defaultPrevented) submit.preventDefault();
  };

  doc.addEventListener('click', onClick, true);
  doc.addEventListener('keydown', onKeydown, true);
  view.addEventListener('submit', onSubmit);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(clearing);
    doc.removeEventListener('click', onClick, true);
    doc.removeEventListener('keydown', onKeydown, true);
    view.removeEventListener('submit', onSubmit);
  };
}
