import { api, type Model } from '../api';
import { ModelForm, type ModelFields } from '../components/model-form';
import { useSession } from '../session';
import { ControlsCard } from './model-controls';

export function SettingsTab({ model, onSaved }: { model: Model; onSaved: (m: Model) => void }) {
  const session = useSession();
  const save = async (fields: ModelFields) => {
    onSaved(await api.updateModel(model.id, fields));
    session.notify('Changes saved.');
  };
  return (
    <>
      <section aria-labelledby="settings-heading">
        <h2 id="settings-heading" class="section-title">
          Settings
        </h2>
        <ModelForm
          idPrefix="edit"
          initial={model}
          submitLabel="Save changes"
          busyLabel="Saving…"
          onSubmit={save}
        />
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
      <ControlsCard model={model} onSaved={onSaved} />
    </>
  );
}
