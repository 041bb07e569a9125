import './fields.css';

/**
 * A field's problem, under it and announced (role alert), or a check's message with no field of
 * its own to sit under (an order's value, a form's pair). Nothing when there is no message.
 */
export const FieldError = ({
  message,
  id,
  testId,
}: {
  readonly message: string | undefined;
  /** For the field's aria-describedby. */
  readonly id?: string;
  readonly testId?: string;
}) =>
  message ? (
    <div id={id} className="field-error" role="alert" data-testid={testId}>
      {message}
    </div>
  ) : null;
