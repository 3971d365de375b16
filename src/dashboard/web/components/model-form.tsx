import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Model } from '../api';
import { checkRequired } from '../validation-messages';
import { FormError, requireValid, TextField, useFormAction } from './form';

export type ModelFields = Pick<Model, 'name' | 'description' | 'link'>;

interface ModelFormProps {
  /** Starts the fields' ids, e.g. `model` gives `model-name`; unique on the page. */
  idPrefix: string;
  /** The values to start from; a new model starts empty. */
  initial?: ModelFields;
  nameHint?: string;
  submitLabel: string;
  busyLabel: string;
  onSubmit: (fields: ModelFields) => Promise<void>;
  /** More actions after the submit button, e.g. a cancel link. */
  children?: ComponentChildren;
}

/** A model's name, description and link, for registering a model and for changing one. */
export function ModelForm(props: ModelFormProps) {
  const [name, setName] = useState(props.initial?.name ?? '');
  const [description, setDescription] = useState(props.initial?.description ?? '');
  const [link, setLink] = useState(props.initial?.link ?? '');
  const form = useFormAction(async () => {
    requireValid({
      name: checkRequired('name', name),
      link:
        link.trim() !== '' && !/^https?:\/\/\S+$/i.test(link.trim())
          ? 'Enter a web address that starts with https://.'
          : null,
    });
    await props.onSubmit({
      name,
      // An emptied field clears the value (null), as the API expects.
      description: description.trim() || null,
      link: link.trim() || null,
    });
  });
  return (
    <form class="card form" ref={form.formRef} onSubmit={form.onSubmit} noValidate>
      <FormError error={form.error} />
      <TextField
        id={`${props.idPrefix}-name`}
        label="Name"
        hint={props.nameHint}
        value={name}
        onValue={setName}
        maxLength={100}
        error={form.error?.forField('name')}
      />
      <TextField
        id={`${props.idPrefix}-description`}
        label="Description"
        optional
        multiline
        value={description}
        onValue={setDescription}
        maxLength={1000}
        error={form.error?.forField('description')}
      />
      <TextField
        id={`${props.idPrefix}-link`}
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
          {form.busy ? props.busyLabel : props.submitLabel}
        </button>
        {props.children}
      </div>
    </form>
  );
}
