import { Card, Col, Descriptions, Row, Statistic, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { responseStatus } from '../../../lib/errors';
import { useHealth } from '../api/admin-api';

/**
 * Health: scans by status, scans per worker process, lease expiries and re-queues in 24 h, retries
 * waiting, the oldest queued scan, the scheduler's last tick and mail failures; the same figures /metrics exports for Prometheus.
 */
export function AdminHealth() {
  const { t, i18n } = useTranslation();
  const health = useHealth();
  if (health.isError) {
    return (
      <Typography.Text type="danger">
        {t('admin.loadFailed', { status: responseStatus(health.error) })}
      </Typography.Text>
    );
  }
  const data = health.data;
  return (
    <div className="admin-health">
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12}>
          <Card title={t('admin.health.queueDepth')} size="small" loading={!data}>
            <Table
              rowKey="status"
              size="small"
              pagination={false}
              dataSource={data?.queueDepth ?? []}
              columns={[
                {
                  key: 'status',
                  title: t('admin.scans.status'),
                  render: (_, row) => t(`scanStatus.s${row.status}`),
                },
                { key: 'count', title: t('admin.health.count'), dataIndex: 'count' },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card title={t('admin.health.workers')} size="small" loading={!data}>
            <Table
              rowKey="worker"
              size="small"
              pagination={false}
              locale={{ emptyText: t('admin.health.noWorkers') }}
              dataSource={data?.runningByWorker ?? []}
              columns={[
                { key: 'worker', title: t('admin.scans.worker'), dataIndex: 'worker' },
                { key: 'count', title: t('admin.health.count'), dataIndex: 'count' },
              ]}
            />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic
              title={t('admin.health.leaseExpiries')}
              value={data?.leaseExpiries24h ?? 0}
            />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic title={t('admin.health.requeues')} value={data?.requeues24h ?? 0} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic title={t('admin.health.mailFailures')} value={data?.mailFailures ?? 0} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic title={t('admin.health.outboxPending')} value={data?.outboxPending ?? 0} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic title={t('admin.health.outboxFailed')} value={data?.outboxFailed ?? 0} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic
              title={t('admin.health.waitingForRetry')}
              value={data?.waitingForRetry ?? 0}
            />
          </Card>
        </Col>
        <Col xs={24}>
          <Descriptions size="small" bordered column={1}>
            <Descriptions.Item label={t('admin.health.oldestQueued')}>
              {data?.oldestQueuedAt
                ? new Date(data.oldestQueuedAt).toLocaleString(i18n.language)
                : t('admin.health.noneQueued')}
            </Descriptions.Item>
            <Descriptions.Item label={t('admin.health.schedulerTick')}>
              {data?.schedulerLastTick
                ? new Date(data.schedulerLastTick).toLocaleString(i18n.language)
                : t('admin.health.never')}
            </Descriptions.Item>
            <Descriptions.Item label={t('admin.health.lastMailFailure')}>
              {data?.lastMailFailure
                ? new Date(data.lastMailFailure).toLocaleString(i18n.language)
                : t('admin.health.never')}
            </Descriptions.Item>
            <Descriptions.Item label={t('admin.health.metrics')}>
              <Typography.Text code>/metrics</Typography.Text> {t('admin.health.metricsNote')}
            </Descriptions.Item>
          </Descriptions>
        </Col>
      </Row>
    </div>
  );
}
