/**
 * Where the user is in the purchase (e-mail → card → done), so every screen of the flow says
 * how far along it is.
 */
import styled from 'styled-components';

const STEPS = ['メールアドレス', 'お支払い方法', '登録完了'] as const;

const List = styled.ol`
  display: flex;
  gap: 8px;
  list-style: none;
  padding: 0;
  margin: 0 0 20px;
  font-size: 0.85rem;
  li {
    flex: 1;
    padding: 6px 8px;
    border-radius: 8px;
    text-align: center;
    background: ${({ theme }) => theme.surfaceRaised};
    color: ${({ theme }) => theme.textMuted};
  }
  li[aria-current='step'] {
    background: ${({ theme }) => theme.primary};
    color: ${({ theme }) => theme.primaryText};
    font-weight: 700;
  }
`;

/** `current` is 0 (e-mail), 1 (card) or 2 (done). */
export function PurchaseSteps({ current }: { current: 0 | 1 | 2 }) {
  return (
    <List aria-label="登録の手順" data-testid="purchase-steps" data-current={current}>
      {STEPS.map((label, i) => (
        <li key={label} aria-current={i === current ? 'step' : undefined}>
          {i + 1}. {label}
        </li>
      ))}
    </List>
  );
}
