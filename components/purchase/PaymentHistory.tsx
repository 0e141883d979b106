/**
 * The payment history of /settings/purchase (issue 9 §3.4): one row per bill, newest first as
 * the api gives it (GET /v1/purchase/summary `invoices`): date, what it was for, the period,
 * the amount (tax included) and whether it was paid, with the reason when it was refused.
 * On a phone the table is squeezed: the status keeps its word on one line (Japanese otherwise
 * breaks anywhere, "支払い済み" one character a line) and the table scrolls sideways instead.
 */
import styled from 'styled-components';
import type { Invoice } from '@/lib/api/purchase';
import { formatPlanDate, formatYen, invoiceReasonLabel, invoiceStatusLabel } from '@/lib/purchase/format';

const Wrap = styled.div`
  overflow-x: auto;
  table {
    width: 100%;
    border-collapse: collapse;
    font-size: 0.9rem;
  }
  th,
  td {
    padding: 8px 6px;
    border-bottom: 1px solid ${({ theme }) => theme.border};
    text-align: left;
    vertical-align: top;
  }
  th {
    color: ${({ theme }) => theme.textMuted};
    font-weight: 700;
    white-space: nowrap;
  }
  .amount {
    text-align: right;
    white-space: nowrap;
  }
  .status {
    white-space: nowrap;
  }
  .failure {
    display: block;
    min-width: 8em;
    color: ${({ theme }) => theme.destructive};
    font-size: 0.8rem;
  }
`;

export function PaymentHistory({ invoices }: { invoices: Invoice[] }) {
  if (invoices.length === 0) return <p data-testid="payment-history-empty">お支払いの履歴はまだありません。</p>;
  return (
    <Wrap>
      <table data-testid="payment-history" aria-label="お支払い履歴">
        <thead>
          <tr>
            <th scope="col">日付</th>
            <th scope="col">内容</th>
            <th scope="col">対象期間</th>
            <th scope="col" className="amount">
              金額（税込）
            </th>
            <th scope="col">状態</th>
          </tr>
        </thead>
        <tbody>
          {invoices.map((inv) => (
            <tr key={inv.id} data-testid="payment-row" data-status={inv.status}>
              <td>{formatPlanDate(inv.paidAt ?? inv.created)}</td>
              <td>{invoiceReasonLabel(inv.billingReason)}</td>
              <td>
                {formatPlanDate(inv.periodStart)}〜{formatPlanDate(inv.periodEnd)}
              </td>
              <td className="amount">{formatYen(inv.status === 'paid' ? inv.amountPaidJpy : inv.amountDueJpy)}</td>
              <td>
                <span className="status" data-testid="payment-status">
                  {invoiceStatusLabel(inv.status)}
                </span>
                {inv.failureMessage && inv.status !== 'paid' && <span className="failure">{inv.failureMessage}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Wrap>
  );
}
