import { Component, type ReactNode } from 'react';
import { messageOf } from '../api/problems';
import { PageHeader } from './ui';

/**
 * A page that fails while it renders (an answer of a shape it did not expect) shows why, under the layout's menu,
 * instead of emptying the whole window. `resetKey` (the address) gives the next page its chance.
 */
export class PageErrorBoundary extends Component<
  { resetKey: string; children: ReactNode },
  { error?: unknown; key: string }
> {
  state: { error?: unknown; key: string } = { key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: { resetKey: string }, state: { error?: unknown; key: string }) {
    return props.resetKey === state.key ? null : { error: undefined, key: props.resetKey };
  }

  render() {
    if (this.state.error === undefined) return this.props.children;
    return (
      <>
        <PageHeader title="This page cannot be shown" />
        <p className="message message-error" role="alert">
          {messageOf(this.state.error)}
        </p>
        <p>Choose another page in the menu, or reload this one.</p>
      </>
    );
  }
}
