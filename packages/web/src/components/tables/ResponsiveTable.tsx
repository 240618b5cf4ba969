import { Button, Card, Empty, Pagination, Spin, Table, type TableProps } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { useState, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNarrowScreen } from '../../lib/use-narrow-screen';

type Props<Row> = TableProps<Row> & {
  /** A name for each card's region (read aloud), e.g. the row's address. */
  cardLabel?: (row: Row) => string;
};

/**
 * A table on a wide screen; on a phone (issue 37) each row a card of label–value lines, in the
 * columns' order, so no column pinned to an edge covers another and nothing scrolls sideways.
 * Paging, loading, the empty text, row classes and expandable rows (a "Details" switch on the
 * card) work as on the table.
 */
export function ResponsiveTable<Row extends object>(props: Props<Row>) {
  const narrow = useNarrowScreen();
  const { cardLabel: _cardLabel, ...table } = props;
  if (!narrow) return <Table<Row> {...table} />;
  return <RowCards {...props} />;
}

function keyOf<Row>(row: Row, index: number, rowKey: TableProps<Row>['rowKey']): Key {
  if (typeof rowKey === 'function') return rowKey(row, index);
  if (typeof rowKey === 'string') return String((row as Record<string, unknown>)[rowKey]);
  return index;
}

function cellOf<Row>(column: ColumnType<Row>, row: Row, index: number): ReactNode {
  const field = column.dataIndex;
  const value =
    typeof field === 'string' || typeof field === 'number'
      ? (row as Record<string, unknown>)[field]
      : undefined;
  if (column.render) return column.render(value, row, index) as ReactNode;
  return typeof value === 'string' || typeof value === 'number' ? value : '';
}

function isEmptyCell(cell: ReactNode): boolean {
  return cell === '' || cell === null || cell === undefined || cell === false;
}

function RowCards<Row extends object>({
  columns = [],
  dataSource = [],
  rowKey,
  rowClassName,
  loading,
  locale,
  pagination,
  expandable,
  cardLabel,
  className,
}: Props<Row>) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<Key[]>([]);
  const paging = pagination === false ? undefined : pagination;
  // A server-paged table gives `total`; a client-paged one pages its rows here.
  const pageSize = paging?.pageSize ?? 10;
  const [ownPage, setOwnPage] = useState(1);
  const serverPaged = paging?.total !== undefined;
  const current = paging?.current ?? ownPage;
  const rows = serverPaged
    ? dataSource
    : dataSource.slice((current - 1) * pageSize, current * pageSize);
  const expanded = expandable?.expandedRowKeys ?? open;
  const toggle = (key: Key) => {
    const next = expanded.includes(key)
      ? expanded.filter((item) => item !== key)
      : [...expanded, key];
    if (expandable?.onExpandedRowsChange) expandable.onExpandedRowsChange(next);
    else setOpen(next);
  };
  const shown = (columns as Array<ColumnType<Row>>).filter(
    (column) => typeof column.title === 'string' && column.title !== '',
  );
  return (
    <Spin spinning={Boolean(loading)}>
      <div className={['row-cards', className].filter(Boolean).join(' ')}>
        {rows.length === 0 && (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={(locale?.emptyText as ReactNode) ?? undefined}
          />
        )}
        {rows.map((row, index) => {
          const key = keyOf(row, index, rowKey);
          const extra =
            typeof rowClassName === 'function' ? rowClassName(row, index, 0) : rowClassName;
          return (
            <Card
              key={key}
              size="small"
              className={['row-card', extra].filter(Boolean).join(' ')}
              role="group"
              aria-label={cardLabel?.(row)}
            >
              <dl className="row-card-fields">
                {shown.map((column, columnIndex) => {
                  const cell = cellOf(column, row, index);
                  if (isEmptyCell(cell)) return null;
                  return (
                    <div className="row-card-field" key={String(column.key ?? columnIndex)}>
                      <dt>{column.title as ReactNode}</dt>
                      <dd>{cell}</dd>
                    </div>
                  );
                })}
              </dl>
              {expandable?.expandedRowRender && (
                <>
                  <Button
                    size="small"
                    type="link"
                    className="row-card-details"
                    aria-expanded={expanded.includes(key)}
                    onClick={() => toggle(key)}
                  >
                    {t('tables.details')}
                  </Button>
                  {expanded.includes(key) && expandable.expandedRowRender(row, index, 0, true)}
                </>
              )}
            </Card>
          );
        })}
        {paging && (serverPaged ? (paging.total ?? 0) : dataSource.length) > pageSize && (
          <Pagination
            size="small"
            simple
            current={current}
            pageSize={pageSize}
            total={serverPaged ? paging.total : dataSource.length}
            onChange={(page, size) => {
              setOwnPage(page);
              paging.onChange?.(page, size);
            }}
          />
        )}
      </div>
    </Spin>
  );
}
