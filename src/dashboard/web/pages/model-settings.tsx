import { useState } from 'preact/hooks';
import { api, type Model } from '../api';
import { FormError, TextField, useFormAction } from '../components/form';
import { useSession } from '../session';

export function SettingsTab({ model, onSaved }: { model: Model; onSaved: (m: Model) => void }) {
  const session = useSession();
  const [name, setName] = useState(model.name);
  const [description, setDescription] = useState(model.description ?? '');
  const [link, setLink] = useState(model.link ?? '');
  const form = useFormAction(async () => {
    const saved = await api.updateModel(model.id, {
      name,
      // An emptied field clears the value (null), as the API expects.
      description: description.trim() || null,
      link: link.trim() || null,
    });
    onSaved(saved);
    session.notify('Changes saved.');
  });
  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading" class="section-title">
        Settings
      </h2>
      <form class="card form" ref={form.formRef} onSubmit={form.onSubmit} noValidate>
        <FormError error={form.error} />
        <TextField
          id="edit-name"
          label="Name"
          value={name}
          onValue={setName}
          maxLength={100}
          error={form.error?.forField('name')}
        />
        <TextField
          id="edit-description"
          label="Description"
          optional
          multiline
          value={description}
          onValue={setDescription}
          maxLength={1000}
          error={form.error?.forField('description')}
        />
        <TextField
          id="edit-link"
          label="Link"
          type="url"
          optional
          hint="Where people meet the model, e.g. https://assistant.example.com"
          value={link}
          onValue={setLink}
          error={form.error?.forField('link')}
        />
        <div class="form__actions">
          <button type="submit" class="button button--primary" disabled={form.busy}>
            {form.busy ? 'Saving…' : 'Save changes'}
          </button>
        </div>
      </form>
      <dl class="facts">
        <dt>Model id</dt>
        <dd>
          <code>{model.id}</code>
        </dd>
        <dt>Status</dt>
        <dd>
          {model.status === 'active'
            ? 'Active: its keys serve ads. Use “Deactivate model” above to pause it.'
            : 'Deactivated: its keys answer 404 until the model is activated again.'}
        </dd>
      </dl>
    </section>
  );
}
