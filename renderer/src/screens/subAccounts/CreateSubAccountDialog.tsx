/**
 * Creates a sub-account. A react-hook-form form driven by the contract's own input schema
 * (`subAccounts.create`): the login-name rule and the e-mail check are the ones main applies, shown
 * once, at their field, as the person types (after the first touch) and on submit. A refusal that
 * names a field is put on that field; anything else is one banner. Enter in a field submits (a
 * sub-account is only created from a typed, valid name — nothing is created with defaults).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { z } from 'zod';
import {
  subAccounts as contract,
  LOGIN_NAME_MAX,
  LOGIN_NAME_MIN,
  type SubAccountView,
} from '../../../../shared/contract/subAccounts';
import { useDeskMutation } from '../../lib/desk';
import { type FormFields, placeRefusal } from '../../lib/formErrors';
import { Button, Dialog, ErrorNotice, TextField } from '../../ui';

const input = contract.create.input;
/** An optional text the form holds as '' when empty: trimmed, and left out when empty. */
const optional = (schema: z.ZodType) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined), schema);
const FormSchema = z.object({
  loginName: input.shape.loginName,
  remark: optional(input.shape.remark),
  email: optional(input.shape.email),
});
type FormValues = { loginName: string; remark: string; email: string };
const FIELDS: FormFields<FormValues> = { loginName: 'Login name', remark: 'Remark', email: 'E-mail' };

export const CreateSubAccountDialog = ({
  onClose,
  onCreated,
}: {
  readonly onClose: () => void;
  readonly onCreated: (account: SubAccountView) => void;
}) => {
  const form = useForm<FormValues, unknown, z.output<typeof FormSchema>>({
    // The schema reads the form's strings (its preprocess takes `unknown`): the same values, typed for the form.
    resolver: zodResolver(FormSchema) as unknown as Resolver<FormValues, unknown, z.output<typeof FormSchema>>,
    mode: 'onTouched',
    reValidateMode: 'onChange',
    defaultValues: { loginName: '', remark: '', email: '' },
  });
  const [banner, setBanner] = useState<unknown>();
  const create = useDeskMutation('subAccounts.create', {
    invalidates: ['subAccounts.list', 'subAccounts.balances', 'subAccounts.unifiedMode'],
  });

  const submit = form.handleSubmit((values) => {
    if (create.isPending) return;
    setBanner(undefined);
    create.mutate(
      {
        loginName: values.loginName,
        ...(values.remark ? { remark: values.remark as string } : {}),
        ...(values.email ? { email: values.email as string } : {}),
      },
      {
        onSuccess: (account) => onCreated(account),
        onError: (error) => {
          setBanner(placeRefusal(error, form.setError, FIELDS));
        },
      },
    );
  });

  return (
    <Dialog
      open
      title="Create a sub-account"
      onClose={onClose}
      busy={create.isPending}
      testId="create-subaccount"
      onEnter={() => void submit()}
      footer={
        <>
          <Button onClick={onClose} disabled={create.isPending}>
            Cancel
          </Button>
          <Button
            variant="primary"
            onClick={() => void submit()}
            busy={create.isPending}
            data-testid="create-subaccount-submit"
          >
            Create sub-account
          </Button>
        </>
      }
    >
      <form
        noValidate
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Controller
          control={form.control}
          name="loginName"
          render={({ field, fieldState }) => (
            <TextField
              label="Login name"
              value={field.value}
              onChange={(v) => {
                field.onChange(v);
                // The rule is shown as the person types, not only after leaving the field.
                if (!fieldState.isTouched) form.setValue('loginName', v, { shouldTouch: true, shouldValidate: true });
              }}
              error={fieldState.error?.message}
              hint={`${LOGIN_NAME_MIN}–${LOGIN_NAME_MAX} characters: letters, digits and underscore, starting with a letter.`}
              maxLength={LOGIN_NAME_MAX + 8}
              data-autofocus
            />
          )}
        />
        <Controller
          control={form.control}
          name="remark"
          render={({ field, fieldState }) => (
            <TextField
              label="Remark (optional)"
              value={field.value}
              onChange={field.onChange}
              error={fieldState.error?.message}
            />
          )}
        />
        <Controller
          control={form.control}
          name="email"
          render={({ field, fieldState }) => (
            <TextField
              label="E-mail (optional)"
              value={field.value}
              onChange={field.onChange}
              error={fieldState.error?.message}
              type="email"
              hint="Password and e-mail default to the main account’s."
            />
          )}
        />
        {banner ? <ErrorNotice error={banner} /> : null}
      </form>
    </Dialog>
  );
};
