// The sign-in panel every page starts with: log in (and, for customers, register), then hand
// the session to the page. Errors are the API's problems, shown next to the field at fault.
import { $, clearProblems, showProblem } from './api.js';

/**
 * Wires the page's #signin form (and #register for customers) to `session`; calls onReady()
 * once signed in (at once when the tab already holds a session) and onSignedOut() after
 * the #signout button.
 */
export function setUpSignIn(session, { onReady, onSignedOut }) {
  const panel = $('#signin-panel');
  const app = $('#app');
  const who = $('#who');
  const show = () => {
    const signedIn = Boolean(session.token);
    panel.hidden = signedIn;
    app.hidden = !signedIn;
    $('#signout').hidden = !signedIn;
    who.textContent = signedIn ? `${session.account.name || session.account.email}` : '';
  };

  $('#signin').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    clearProblems(form);
    try {
      await session.login(form.email.value.trim(), form.password.value);
      form.reset();
      show();
      onReady();
    } catch (error) { showProblem(form, error); }
  });

  const register = document.querySelector('#register');
  if (register) {
    register.addEventListener('submit', async (event) => {
      event.preventDefault();
      const form = event.currentTarget;
      clearProblems(form);
      const email = form.email.value.trim(), password = form.password.value;
      try {
        await session.call('POST', '/v1/accounts', { email, password, name: form.name.value.trim() });
        await session.login(email, password);
        form.reset();
        show();
        onReady();
      } catch (error) { showProblem(form, error); }
    });
  }

  $('#signout').addEventListener('click', async () => {
    await session.logout();
    show();
    onSignedOut?.();
  });

  show();
  if (session.token) onReady();
}
