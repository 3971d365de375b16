import { api } from '../api';
import { ModelForm, type ModelFields } from '../components/model-form';
import { EmptyState, LoadError, Loading, PageTitle, StatusBadge } from '../components/ui';
import { formatInstant } from '../format';
import { handOffNewKey } from '../new-key-handoff';
import { href, navigate } from '../router';
import { useLoad, useSession } from '../session';

export function ModelsPage() {
  const models = useLoad(() => api.models(), []);
  return (
    <>
      <div class="page-head">
        <PageTitle title="AI models">Your AI models</PageTitle>
        <a class="button button--primary" href={href('/models/new')}>
          <span aria-hidden="true">+ </span>New model
        </a>
      </div>
      <p class="lead">
        Each AI model has its own API keys, so its impressions, clicks and earnings are counted
        apart.
      </p>
      {models.loading && !models.data && <Loading what="your models" />}
      {models.error && <LoadError error={models.error} onRetry={models.reload} />}
      {models.data?.length === 0 && (
        <EmptyState title="No models yet">
          <p>Register your first AI model to get an API key and start serving ads.</p>
          <a class="button button--primary" href={href('/models/new')}>
            Register a model
          </a>
        </EmptyState>
      )}
      {models.data && models.data.length > 0 && (
        <table class="table table--stack">
          <caption class="visually-hidden">Your AI models</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Registered</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {models.data.map((model) => (
              <tr key={model.id}>
                <th scope="row" data-label="Name">
                  <a href={href(`/models/${model.id}/keys`)}>{model.name}</a>
                  {model.description && <span class="table__sub">{model.description}</span>}
                </th>
                <td data-label="Status">
                  <StatusBadge status={model.status} />
                </td>
                <td data-label="Registered">{formatInstant(model.created_at)}</td>
                <td class="table__actions">
                  <a
                    href={href(`/models/${model.id}/keys`)}
                    aria-label={`API keys of ${model.name}`}
                  >
                    Keys
                  </a>
                  <a href={href(`/models/${model.id}/settings`)} aria-label={`Edit ${model.name}`}>
                    Edit
                  </a>
                  <a
                    href={href(`/models/${model.id}/integration`)}
                    aria-label={`Integrate ${model.name}`}
                  >
                    Integrate
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

export function NewModelPage() {
  const session = useSession();
  const register = async (fields: ModelFields) => {
    const model = await api.createModel(fields);
    handOffNewKey(model.id, model.api_key);
    navigate(`/models/${model.id}/keys`);
    session.notify(`Model “${model.name}” registered, with its first API key.`);
  };
  return (
    <>
      <nav class="breadcrumbs" aria-label="Breadcrumb">
        <a href={href('/models')}>AI models</a> <span aria-hidden="true">›</span> New model
      </nav>
      <PageTitle title="New model">Register an AI model</PageTitle>
      <p class="lead">
        The model gets its first API key at once; you can add more later, e.g. one per deployment.
      </p>
      <ModelForm
        idPrefix="model"
        nameHint="How you and your reports will call this model."
        submitLabel="Register model"
        busyLabel="Registering…"
        onSubmit={register}
      >
        <a class="button" href={href('/models')}>
          Cancel
        </a>
      </ModelForm>
    </>
  );
}
